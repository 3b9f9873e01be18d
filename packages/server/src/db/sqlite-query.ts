import type { Sequelize } from 'sequelize';
import sequelizeLogger from 'sequelize/lib/utils/logger';

/**
 * Sequelize's SQLite dialect captures an `Error` before each statement and reads its `.stack`
 * in the statement's callback, whether the statement failed or not, to give the call site's
 * stack to the error of a failed one. Reading `.stack` formats every frame, on every read and
 * write of the app (docs/server.md, "SQLite"). This is Sequelize 6.37's `run` of that dialect
 * with one change: the stack is read only when the statement failed, so a failed statement's
 * error still carries it.
 */
export function formatSqliteStacksOnFailure(sequelize: Sequelize): void {
  const dialect = (sequelize as unknown as { dialect: { Query: QueryClass } }).dialect;
  const Base = dialect.Query;
  if ((Base as { stackOnFailure?: boolean }).stackOnFailure) return;
  dialect.Query = class extends Base {
    static stackOnFailure = true;
    run(sql: string, parameters?: unknown): Promise<unknown> {
      return runStatement(this as unknown as SqliteQuery, sql, parameters);
    }
  };
}

type QueryClass = new (...args: unknown[]) => object;

type Callback = (this: unknown, err: Error | null, results: unknown) => void;

interface SqliteConnection {
  serialize(fn: () => void): void;
  all(sql: string, callback: (err: Error | null, rows: Array<{ name: string; type: string }>) => void): void;
  [method: string]: unknown;
}

interface SqliteQuery {
  connection: SqliteConnection;
  sql: string;
  options?: { tableNames?: string[] };
  getDatabaseMethod(): string;
  _logQuery(sql: string, debug: (message: string) => void, parameters: unknown): () => void;
  _handleQueryResponse(metaData: unknown, columnTypes: Record<string, Record<string, string>>, err: Error | null, results: unknown, errStack: string | undefined): unknown;
}

const debug = (sequelizeLogger as unknown as { logger: { debugContext(name: string): (message: string) => void } }).logger.debugContext('sql:sqlite');

const stringifyIfBigint = (value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
};

function runStatement(query: SqliteQuery, sql: string, parameters: unknown): Promise<unknown> {
  const conn = query.connection;
  query.sql = sql;
  const method = query.getDatabaseMethod();
  const complete = query._logQuery(sql, debug, parameters);
  return new Promise((resolve, reject) =>
    conn.serialize(async () => {
      const columnTypes: Record<string, Record<string, string>> = {};
      // Captured here, where the caller's frames are; formatted only for a failure.
      const errForStack = new Error();
      const executeSql = () => {
        if (sql.startsWith('-- ')) {
          resolve(undefined);
          return;
        }
        const afterExecute: Callback = function (executionError, results) {
          try {
            complete();
            resolve(query._handleQueryResponse(this, columnTypes, executionError, results, executionError ? errForStack.stack : undefined));
          } catch (error) {
            reject(error);
          }
        };
        let bound: unknown;
        if (!parameters) bound = [];
        else if (isPlainObject(parameters)) {
          const named: Record<string, unknown> = Object.create(null);
          for (const key of Object.keys(parameters)) named[`${key}`] = stringifyIfBigint(parameters[key]);
          bound = named;
        } else bound = (parameters as unknown[]).map(stringifyIfBigint);
        (conn[method] as (sql: string, parameters: unknown, callback: Callback) => void).call(conn, sql, bound, afterExecute);
      };
      if (method === 'all') {
        let tableNames: string[] = [];
        if (query.options && query.options.tableNames) tableNames = query.options.tableNames;
        else {
          const from = /FROM `(.*?)`/i.exec(query.sql);
          if (from) tableNames.push(from[1]);
        }
        tableNames = tableNames.filter((tableName) => !(tableName in columnTypes) && tableName !== 'sqlite_master');
        if (!tableNames.length) return executeSql();
        await Promise.all(
          tableNames.map(
            (name) =>
              new Promise<void>((done) => {
                const tableName = name.replace(/`/g, '');
                columnTypes[tableName] = {};
                conn.all(`PRAGMA table_info(\`${tableName}\`)`, (err, rows) => {
                  if (!err) for (const row of rows) columnTypes[tableName][row.name] = row.type;
                  done();
                });
              }),
          ),
        );
      }
      return executeSql();
    }),
  );
}
