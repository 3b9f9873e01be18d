import type { StrategyDoc } from '@bt/core/catalogue';
import { TO_DOCUMENT } from '@bt/core/catalogue';

/** The parameters of a strategy: a table from 640 px, one block per parameter below (reference.css). */
export function ParamTable({ doc }: { doc: StrategyDoc }) {
  return (
    <table className="doc-table" data-testid="param-table">
      <thead>
        <tr>
          <th scope="col">Paramètre</th>
          <th scope="col">Description</th>
          <th scope="col">Défaut</th>
        </tr>
      </thead>
      <tbody>
        {doc.parameters.map((p) => (
          <tr key={p.name}>
            <th scope="row">
              <span className="param-label">{p.label}</span>
              <code className="param-name">{p.name}</code>
            </th>
            <td>{p.description}</td>
            <td className="param-default">
              <span className="cell-label">Défaut : </span>
              {p.defaultText}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ToCompleteBadge({ doc }: { doc: StrategyDoc }) {
  return doc.missing.length ? (
    <span className="badge badge-todo" title={`À compléter : ${doc.missing.join(', ')}`}>
      à compléter
    </span>
  ) : null;
}

/**
 * A strategy's sheet on /a-savoir's Techniques (spec: summary, entry rules, parameters); the
 * documentation page shows the whole detail (StrategyDetail).
 */
export function StrategySheet({ doc }: { doc: StrategyDoc }) {
  return (
    <>
      <h3>
        {doc.title} <ToCompleteBadge doc={doc} />
      </h3>
      <p className="mono small muted">{doc.key}</p>
      <p>{doc.summary}</p>
      <h4>Règles d’entrée</h4>
      {doc.entryConditions.length ? (
        <ul>
          {doc.entryConditions.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
      ) : (
        <p>{TO_DOCUMENT}</p>
      )}
      <h4>Paramètres</h4>
      <ParamTable doc={doc} />
    </>
  );
}
