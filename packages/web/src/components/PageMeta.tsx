/** Title and robots rule of a page (React 19 hoists these tags into <head>). */
export function PageMeta({ title, noindex = false }: { title: string; noindex?: boolean }) {
  return (
    <>
      <title>{`${title} · bt`}</title>
      {noindex ? <meta name="robots" content="noindex, nofollow" /> : null}
    </>
  );
}
