// The upload progress of `bt admin import-output`, on stderr: a bar redrawn in place on a
// terminal, a line at each quarter otherwise (CI logs, pipes).
import { colorEnabled } from '../output.js';

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

export function uploadProgress(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const tty = Boolean(stream.isTTY) && process.env.TERM !== 'dumb';
  const color = colorEnabled(stream);
  let lastDraw = 0;
  let lastQuarter = -1;
  let finished = false;
  const draw = (sent: number, total: number) => {
    const ratio = total > 0 ? sent / total : 1;
    const width = 30;
    const filled = Math.round(ratio * width);
    const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
    const text = `${label} ${color ? `\x1b[36m${bar}\x1b[39m` : bar} ${String(Math.floor(ratio * 100)).padStart(3)}% ${mb(sent)}/${mb(total)} MB`;
    stream.write(`\r${text}\x1b[K`);
  };
  return {
    update(sent: number, total: number) {
      if (finished) return;
      if (tty) {
        const now = Date.now();
        if (sent < total && now - lastDraw < 80) return;
        lastDraw = now;
        draw(sent, total);
        if (sent >= total) {
          stream.write('\n');
          finished = true;
        }
        return;
      }
      const quarter = total > 0 ? Math.floor((sent / total) * 4) : 4;
      if (quarter > lastQuarter) {
        lastQuarter = quarter;
        stream.write(`${label} ${quarter * 25}% (${mb(sent)}/${mb(total)} MB)\n`);
        if (quarter >= 4) finished = true;
      }
    },
  };
}
