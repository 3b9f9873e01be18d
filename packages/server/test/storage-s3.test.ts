import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { openStorages, readS3Env } from '../src/storage/index.js';
import { S3Storage, s3Client, type S3Settings } from '../src/storage/s3.js';
import { startLocalS3, type LocalS3 } from './support/s3.js';
import { storageContract } from './support/storage-contract.js';

let s3: LocalS3;
let settings: S3Settings;
let storage: S3Storage;

before(async () => {
  s3 = await startLocalS3();
  settings = await s3.bucket();
  storage = new S3Storage(s3Client(settings), settings.bucket, 'deployment-a/files');
});
after(async () => {
  await s3.close();
});

// s3rver, unlike S3 and MinIO, writes an object's file in place, so a read racing a rewrite can
// see a torn file there: the test server's limit, not the protocol's (a PUT replaces an object
// whole). The rest of the contract holds as is.
storageContract('S3-compatible bucket (s3rver)', () => storage, { concurrentReadsOfRewrite: false });

describe('S3Storage', () => {
  it('keeps each prefix to itself: the library never sees the files, nor another deployment', async () => {
    const client = s3Client(settings);
    const other = new S3Storage(client, settings.bucket, 'deployment-a/library');
    await storage.write('shared-name.txt', 'files');
    await other.write('shared-name.txt', 'library');
    assert.equal(Buffer.from(await storage.read('shared-name.txt')).toString(), 'files');
    assert.equal(Buffer.from(await other.read('shared-name.txt')).toString(), 'library');
    assert.deepEqual(await other.list(''), ['shared-name.txt']);
    assert.equal(await storage.resolve('a/b.txt'), `s3://${settings.bucket}/deployment-a/files/a/b.txt`);
    // A key written by someone else with '..' in it cannot be reached through a path.
    await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: 'deployment-a/secret.txt', Body: 'secret' }));
    await assert.rejects(storage.read('../secret.txt'), /'\.\.' segment/);
  });

  it('answers readiness, and fails it for a bucket that does not exist', async () => {
    await storage.ping();
    const missing = new S3Storage(s3Client(settings), 'no-such-bucket-here');
    await assert.rejects(missing.ping());
    await assert.rejects(missing.read('x.txt'));
  });

  it('is chosen by S3_BUCKET, with checked settings', async () => {
    assert.equal(readS3Env({}), null);
    const env = readS3Env({ S3_BUCKET: settings.bucket, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_PREFIX: '/prod/' });
    assert.deepEqual({ ...env, credentials: undefined }, { bucket: settings.bucket, endpoint: s3.endpoint, region: 'us-east-1', credentials: undefined, forcePathStyle: true, prefix: 'prod' });
    assert.throws(() => readS3Env({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'x' }), /set both or neither/);
    assert.throws(() => readS3Env({ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' }), /S3_ENDPOINT/);
    assert.throws(() => readS3Env({ S3_BUCKET: 'b', S3_PREFIX: 'a/../b' }), /S3_PREFIX/);
    const opened = await openStorages('/unused', env);
    await opened.ping();
    await opened.library.write('EURUSD/2024-01.csv', 'x');
    assert.deepEqual(await new S3Storage(s3Client(settings), settings.bucket, 'prod').list(''), ['library']);
  });
});
