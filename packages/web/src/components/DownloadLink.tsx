import { useState, type MouseEvent, type ReactNode } from 'react';
import { downloadFailureMessage } from '../api/files.js';
import { isAbortError } from '../api/errors.js';
import { saveBlob } from '../lib/saveBlob.js';
import { linkedFiles, toasts } from '../runtime.js';

interface DownloadLinkProps {
  /** The file's address as the spec gives it (with `?apiKey=`): kept on the link, fetched on click. */
  href: string;
  /** The name to save under when the server gives none. */
  file: string;
  className?: string;
  children: ReactNode;
  'data-testid'?: string;
}

/**
 * A download link whose click fetches the file first (api/files.ts `makeLinkedFileFetcher`) and
 * saves it only when it is one; a failure is a French toast ('Téléchargement impossible. …')
 * instead of an error body saved under the file's name. A modified click (new tab, save as) is
 * left to the browser, on the same address.
 */
export function DownloadLink({ href, file, className, children, 'data-testid': testId }: DownloadLinkProps) {
  const [busy, setBusy] = useState(false);

  async function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const got = await linkedFiles(href, file);
      saveBlob(got.blob, got.name);
    } catch (error) {
      if (!isAbortError(error)) toasts.show(downloadFailureMessage(error), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <a className={className} href={href} download={file} onClick={(event) => void onClick(event)} aria-busy={busy || undefined} data-testid={testId}>
      {children}
    </a>
  );
}
