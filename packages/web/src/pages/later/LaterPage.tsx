import type { ReactNode } from 'react';
import { PageMeta } from '../../components/PageMeta.js';

/** A titled page whose content arrives with a later issue (dashboard, comparator, shop...). */
export function LaterPage({ title, intro, noindex = true, children }: { title: string; intro: string; noindex?: boolean; children?: ReactNode }) {
  return (
    <section className="later-page">
      <PageMeta title={title} noindex={noindex} />
      <h1>{title}</h1>
      <p className="muted">{intro}</p>
      {children}
    </section>
  );
}
