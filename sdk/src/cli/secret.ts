// Reading a secret (an API key, a session token) without it landing anywhere else: asked for on
// the terminal with echo off, or read from standard input when that is a pipe or a file.
import type { Readable, Writable } from 'node:stream';

/** The terminal's stdin: a Readable that can switch to raw mode (node's tty.ReadStream). */
interface TtyInput extends Readable {
  isTTY?: boolean;
  setRawMode?: (raw: boolean) => unknown;
}

const ETX = '\u0003'; // Ctrl-C
const EOT = '\u0004'; // Ctrl-D
const DEL = '\u007f';
const BS = '\b';

/** Thrown when the person interrupts the prompt (Ctrl-C). */
export class PromptCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/**
 * Asks for a secret on the terminal: `prompt` on `output`, the typed characters not echoed (raw
 * mode: the terminal shows nothing), until Enter. Backspace edits; Ctrl-C cancels; Ctrl-D ends.
 * When `input` is not a terminal, reads its first line instead (nothing is echoed either way).
 */
export async function readSecret(prompt: string, input: TtyInput, output: Writable): Promise<string> {
  if (!input.isTTY || !input.setRawMode) return firstLine(input);
  input.setRawMode(true); // before the prompt: nothing typed after it is ever echoed
  output.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: string) => {
        for (const ch of chunk) {
          if (ch === '\r' || ch === '\n' || ch === EOT) return done(() => resolve(typed.trim()));
          if (ch === ETX) return done(() => reject(new PromptCancelled()));
          if (ch === DEL || ch === BS) typed = typed.slice(0, -1);
          else if (ch >= ' ') typed += ch;
        }
      };
      const onEnd = () => done(() => resolve(typed.trim()));
      const done = (settle: () => void) => {
        input.off('data', onData);
        input.off('end', onEnd);
        settle();
      };
      input.on('data', onData);
      input.on('end', onEnd);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    output.write('\n');
  }
}

/** Everything up to the first line break of `input` (a pipe, a file), trimmed. */
export async function firstLine(input: Readable, max = 4096): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    const nl = text.search(/\r?\n/);
    if (nl >= 0) return text.slice(0, nl).trim();
    if (text.length > max) break;
  }
  return text.slice(0, max).trim();
}
