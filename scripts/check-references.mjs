// Every reference in the code and the docs points inside the repository (docs/development.md
// "References"): no "spec N", DESIGN, TOOLCHAIN, issue numbers or paths of the machine the
// project was first built on. Run by `npm test` before the suites; exits 1 listing each hit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const OUTSIDE = [
  [/\b[Ss]pec [1-3]\b/, 'a part of the original specification (docs/product.md part N / §N.M)'],
  [/\bDESIGN\b/, 'the original design card (docs/architecture.md)'],
  [/\bTOOLCHAIN\b/, 'the original toolchain note (docs/development.md)'],
  [/\/work\/|\.\.\/shared\//, 'a path outside the repository'],
  [/\b[Ii]ssues? #?\d+\b/, 'an issue of the tracker (say what is meant, or point to docs/)'],
];
const TEXT = /\.(ts|tsx|mts|mjs|js|py|md|css|html|json|sh)$/;

export function outsideReferences(root = '.') {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'packages', 'docs', 'README.md', 'scripts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .concat(execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'fixtures/*.md', 'fixtures/**/*.md'], { cwd: root, encoding: 'utf8' }).split('\n'))
    .filter((f) => TEXT.test(f) && !f.includes('/dist/') && !f.endsWith('package-lock.json') && f !== 'scripts/check-references.mjs');
  const hits = [];
  for (const file of files) {
    let text;
    try { text = readFileSync(`${root}/${file}`, 'utf8'); } catch { continue; }
    text.split('\n').forEach((line, i) => {
      for (const [pattern, what] of OUTSIDE) {
        const m = pattern.exec(line);
        if (m) hits.push(`${file}:${i + 1}:${m.index + 1}: "${m[0]}" refers to ${what}`);
      }
    });
  }
  return hits;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const hits = outsideReferences();
  if (hits.length) {
    console.error(`bt: ${hits.length} reference(s) to documents outside the repository:\n${hits.join('\n')}`);
    process.exit(1);
  }
  console.log('bt: every reference points inside the repository');
}
