import { DataTypes, type Model, type ModelStatic } from 'sequelize';

/**
 * A model instance from a raw row, as `findOne` would build it: each attribute read from
 * `prefix + column` and given the type Sequelize's own parsers give it (dates as Date, booleans
 * as boolean), then built as a stored row. For joins written as one SQL statement on hot paths
 * (docs/security.md "Sessions"), where a second SELECT would be a second round trip.
 */
export function instanceFromRow<M extends Model>(model: ModelStatic<M>, row: Record<string, unknown>, prefix: string): M {
  const values: Record<string, unknown> = {};
  for (const [name, attribute] of Object.entries(model.getAttributes())) {
    const value = row[prefix + (attribute.field ?? name)];
    if (value === undefined) throw new Error(`instanceFromRow: column ${prefix}${attribute.field ?? name} missing for ${model.name}.${name}`);
    values[name] = value === null ? null : attribute.type instanceof DataTypes.DATE ? dateOf(value) : attribute.type instanceof DataTypes.BOOLEAN ? booleanOf(value) : value;
  }
  return model.build(values as M['_creationAttributes'], { isNewRecord: false, raw: true });
}

/**
 * Rows of `findAll({ raw: true, attributes })` with their dates and booleans typed as a model
 * would give them: for listings that read many rows and need no model objects (building them is
 * most of the cost, docs/server.md "Public top strategies").
 */
export function typedRows<T>(model: ModelStatic<Model>, rows: readonly object[]): T[] {
  const attributes = Object.entries(model.getAttributes());
  const dates = attributes.filter(([, a]) => a.type instanceof DataTypes.DATE).map(([name]) => name);
  const booleans = attributes.filter(([, a]) => a.type instanceof DataTypes.BOOLEAN).map(([name]) => name);
  for (const row of rows as Record<string, unknown>[]) {
    for (const name of dates) if (row[name] != null) row[name] = dateOf(row[name]);
    for (const name of booleans) if (row[name] != null) row[name] = booleanOf(row[name]);
  }
  return rows as T[];
}

/** mysql2 answers DATETIME as a Date; SQLite keeps Sequelize's text ('2026-01-15 10:00:00.000 +00:00'). */
function dateOf(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  // As Sequelize's SQLite DATE parser: a stored time without an offset is UTC (the connection's timezone).
  return new Date(text.includes('+') ? text : `${text}+00:00`);
}

/** TINYINT(1) on MySQL, INTEGER 0/1 on SQLite. */
function booleanOf(value: unknown): boolean {
  return typeof value === 'boolean' ? value : Number(value) !== 0;
}

/** `t.column AS prefix_column, ...` for every attribute of the model: the select list `instanceFromRow` reads. */
export function selectColumns(model: ModelStatic<Model>, alias: string, prefix: string, quote: (name: string) => string): string {
  return Object.entries(model.getAttributes())
    .map(([name, attribute]) => `${quote(alias)}.${quote(attribute.field ?? name)} AS ${quote(prefix + (attribute.field ?? name))}`)
    .join(', ');
}
