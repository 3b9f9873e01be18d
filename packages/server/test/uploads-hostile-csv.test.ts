import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { TimeframeKey } from '@bt/core/catalogue';
import { HttpError } from '../src/app/errors.js';
import { CandleUploads } from '../src/uploads/candle-uploads.js';
import { DEFAULT_UPLOAD_LIMITS } from '../src/uploads/limits.js';
import { useTestApp } from './support/app.js';
import { SQLITE_PASS_ONLY } from './support/db.js';
import { balance, funded } from './support/work.js';
import { part, zipOf } from './support/xlsx-files.js';

const H = 'Datetime,Open,High,Low,Close,Volume';

function uploadForm(csv: string, name = 'data.csv'): FormData {
  const form = new FormData();
  form.set('strategy', 'fvg_pullback_multi');
  form.set('symbol', 'EURUSD');
  form.set('sl_pips', '10');
  form.set('tp1_pips', '10');
  form.set('csv_file', new Blob([csv]), name);
  return form;
}

describe('hostile candle CSV uploads: a 4xx naming the place, never a 500', () => {
  const t = useTestApp();

  it('a header of a million columns is a 400 naming line 1 and the count, not a 500', async () => {
    const user = await funded(t, 10);
    for (const header of [H + ',X'.repeat(1_000_000), H + ','.repeat(1_000_000)]) {
      const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(`${header}\n2024-01-02 00:00:00+00:00,1,2,0.5,1.5,10\n`) });
      assert.equal(res.status, 400, res.text.slice(0, 300));
      assert.equal(res.body.detail, "Fichier invalide : ligne 1 : l'en-tête a 1000006 colonnes : 256 au plus (garde Datetime, Open, High, Low, Close, Volume et les indicateurs utiles ; vérifie le séparateur).");
      assert.deepEqual(res.body.problems.map((p: { code: string; line: number }) => [p.code, p.line]), [['too_many_columns', 1]]);
    }
    assert.equal(await balance(t, user.id), 10, 'a refused file costs nothing');
  });

  it('a time that its offset takes past the year 9999 is refused at its line, not as a date the user never wrote', async () => {
    const user = await funded(t, 10);
    const csv = `${H}\n9999-12-31 17:00:00-05:00,1,2,0.5,1.5,10\n9999-12-31 18:00:00-05:00,1,2,0.5,1.5,10\n9999-12-31 19:00:00-05:00,1,2,0.5,1.5,10\n`;
    const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(csv) });
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.equal(res.body.detail, 'Fichier invalide : ligne 4, colonne Datetime : « 10000-01-01 00:00:00+00:00 » n\'est pas une date et heure lisible.');
    assert.equal(await balance(t, user.id), 10);
  });

  it('a 2 MB column name is answered in a few kilobytes, not repeated into a 40 MB answer', async () => {
    const user = await funded(t, 10);
    const name = 'N'.repeat(2_000_000);
    const rows = Array.from({ length: 8 }, (_, i) => `2024-01-02 0${i}:00:00+00:00,1,2,0.5,1.5,10,${i === 0 ? 1 : 'abc'}`).join('\n');
    for (const csv of [`${H},${name}\n${rows}\n`, `${H},${name},${name}\n`, `Datetime,O${'_'.repeat(2_000_000)},High,Low,Close,Volume\n`]) {
      const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(csv) });
      assert.equal(res.status, 400);
      assert.ok(res.text.length < 20_000, `${res.text.length} characters answered`);
      assert.match(res.body.detail, /^Fichier invalide : ligne \d/);
    }
  });

  it('a file sent under the part name __proto__ is the one file of the form, not a second one', async () => {
    const user = await funded(t, 10);
    const rows = Array.from({ length: 48 }, (_, i) => `${new Date(Date.UTC(2024, 0, 2) + i * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')}+00:00,1.1,1.2,1.0,1.15,10`).join('\n');
    const form = uploadForm('unused');
    form.delete('csv_file');
    form.append('__proto__', new Blob([`${H}\n${rows}\n`]), 'data.csv');
    form.append('constructor', 'x');
    const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(res.body.status, 'success');
  });

  it('a zipped or gzipped CSV is told to be decompressed, not renamed .xlsx or read as UTF-16', async () => {
    const user = await funded(t, 10);
    const csv = `${H}\n2024-01-02 00:00:00+00:00,1,2,0.5,1.5,10\n`;
    const zipped = zipOf([part('EURUSD_H1.csv', csv)]);
    for (const [bytes, name, detail] of [
      [zipped, 'data.csv', 'Le fichier .csv est une archive ZIP, pas un fichier texte CSV : décompresse-la et envoie le fichier qu’elle contient.'],
      [zipped, 'data.xlsx', 'Le fichier .xlsx est une archive ZIP, pas un classeur Excel : décompresse-la et envoie le fichier qu’elle contient.'],
      [gzipSync(csv), 'data.csv', 'Le fichier .csv est compressé (gzip) : décompresse-le et envoie le fichier obtenu.'],
    ] as const) {
      const form = uploadForm('unused');
      form.set('csv_file', new Blob([bytes]), name);
      const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form });
      assert.deepEqual([res.status, res.body.detail], [400, detail], name);
    }
    assert.equal(await balance(t, user.id), 10);
  });

  it('a form of thousands of parts is refused before it is parsed', async () => {
    const user = await funded(t, 10);
    const form = uploadForm(`${H}\n`);
    for (let i = 0; i < 1000; i++) form.append(`f${i}`, 'v');
    const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form });
    assert.deepEqual([res.status, res.body.detail], [400, 'Formulaire refusé : plus de 1000 champs.']);
    const encoded = await t.request('POST', '/api/upload_csv_and_backtest', {
      key: user.key,
      body: Array.from({ length: 1001 }, (_, i) => `f${i}=v`).join('&'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.deepEqual([encoded.status, encoded.body.detail], [400, 'Formulaire refusé : plus de 1000 champs.']);
    // The largest real form passes the count: five fields and the file.
    assert.equal((await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(`${H}\n`) })).body.detail, 'Fichier invalide : ligne 2 : le fichier a un en-tête mais aucune bougie.');
    assert.equal(await balance(t, user.id), 10);
  });

  it('a quoted value holding a line break is said to be one, at its lines', async () => {
    const user = await funded(t, 10);
    const csv = `${H}\n2024-01-02 00:00:00+00:00,1,2,0.5,1.5,10\n"2024-01-02 01:00:00+00:00","1\n",2,0.5,1.5,10\n`;
    const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(csv) });
    assert.equal(res.status, 400);
    const why = "un guillemet (\") n'est pas refermé sur la ligne : une valeur entre guillemets contient un retour à la ligne (une bougie par ligne), ou le guillemet est de trop";
    assert.equal(res.body.detail, `Fichier invalide : ligne 3 : ${why} ; ligne 4 : ${why}.`);
  });
});


describe('the upload reader alone', { skip: SQLITE_PASS_ONLY }, () => {
  it('an error of the reader that is not a file problem is a 422 naming no internals, and is logged', async () => {
    const logs: string[] = [];
    const uploads = new CandleUploads({ ...DEFAULT_UPLOAD_LIMITS, concurrency: 1 }, (m) => logs.push(m));
    try {
      const file = { filename: 'data.csv', bytes: new TextEncoder().encode(`${H}\n2024-01-02 00:00:00+00:00,1,2,0.5,1.5,10\n`) };
      // A timeframe core does not know makes its reader throw a plain Error, as a defect would.
      await assert.rejects(uploads.readCandles(file, 'csv', 'EURUSD', 'W1' as TimeframeKey), (err: unknown) => {
        assert.ok(err instanceof HttpError, String(err));
        assert.equal(err.status, 422);
        assert.match(err.message, /^Fichier illisible : sa lecture a échoué sur une erreur inattendue\./);
        return true;
      });
      assert.equal(logs.length, 1);
      assert.match(logs[0], /^upload: the candle reader failed on "data\.csv": invalid timeframe/);
    } finally {
      await uploads.close();
    }
  });
});
