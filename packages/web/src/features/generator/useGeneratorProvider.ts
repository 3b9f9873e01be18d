import { useEffect, useState } from 'react';
import { calls } from '../../runtime.js';
import { readProvider, type GeneratorProvider } from './provider.js';

/** One read per page load; a failure leaves the neutral wording (null) and is asked again next time. */
let pending: Promise<GeneratorProvider | null> | null = null;
let known: GeneratorProvider | null = null;

function loadProvider(): Promise<GeneratorProvider | null> {
  pending ??= calls.generatorProvider().then(
    (answer) => (known = readProvider(answer)),
    () => {
      pending = null;
      return null;
    },
  );
  return pending;
}

export function useGeneratorProvider(): GeneratorProvider | null {
  const [provider, setProvider] = useState<GeneratorProvider | null>(known);
  useEffect(() => {
    let alive = true;
    void loadProvider().then((value) => alive && setProvider(value));
    return () => {
      alive = false;
    };
  }, []);
  return provider;
}
