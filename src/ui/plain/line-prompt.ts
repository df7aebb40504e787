/**
 * Questions as plain lines: a prompt is written, a line is read. No cursor movement, no redraw, no
 * colour: what a dumb terminal, a screen reader or a serial console can follow. Choices are
 * numbered. A secret is read with the terminal's echo off (raw mode, nothing printed for it).
 * Ctrl+C, and the end of the input, cancel with an error named ExitPromptError.
 */
import { StringDecoder } from 'node:string_decoder';
import { asAscii } from '../text/text.js';

export interface PromptIO {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  output: NodeJS.WritableStream;
  /** TERM=dumb: only ASCII is written. */
  ascii?: boolean;
}

export interface Choice<T extends string> {
  value: T;
  name: string;
  description?: string;
}

export class PromptCancelled extends Error {
  override name = 'ExitPromptError';
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';

/** Reads lines (and, on a terminal, secrets without echo) from one input, one question at a time. */
export class LinePrompt {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private readonly lines: string[] = [];
  private waiter?: { resolve: (line: string) => void; reject: (error: Error) => void; secret: boolean };
  private ended = false;
  private secretText = '';

  constructor(private readonly io: PromptIO) {
    io.input.on('data', this.onData);
    io.input.on('end', this.onEnd);
    // A stream paused by an earlier reader stays paused when a listener is added.
    io.input.resume();
  }

  /** Stops reading, so that the process can end. */
  close(): void {
    this.io.input.off('data', this.onData);
    this.io.input.off('end', this.onEnd);
    this.io.input.pause();
  }

  write(text: string): void {
    this.io.output.write(this.io.ascii ? asAscii(text) : text);
  }

  async input(options: {
    message: string;
    default?: string;
    validate?: (value: string) => string | true;
  }): Promise<string> {
    for (;;) {
      const shown = options.default ? ` [${options.default}]` : '';
      const typed = await this.line(`? ${options.message}${shown}: `);
      const value = typed === '' && options.default !== undefined ? options.default : typed;
      const verdict = options.validate?.(value) ?? true;
      if (verdict === true) return value;
      this.write(`x ${verdict}\n`);
    }
  }

  async password(options: { message: string; validate?: (value: string) => string | true }): Promise<string> {
    for (;;) {
      const value = await this.line(`? ${options.message} (not shown): `, true);
      const verdict = options.validate?.(value) ?? true;
      if (verdict === true) return value;
      this.write(`x ${verdict}\n`);
    }
  }

  async select<T extends string>(options: { message: string; choices: Choice<T>[]; default?: string }): Promise<T> {
    const { choices } = options;
    const initial = Math.max(
      0,
      choices.findIndex((c) => c.value === options.default),
    );
    this.write(`? ${options.message}\n`);
    choices.forEach((c, i) => this.write(`  ${i + 1}) ${c.name}${c.description ? ` - ${c.description}` : ''}\n`));
    for (;;) {
      const typed = (await this.line(`Choose 1-${choices.length} [${initial + 1}]: `)).trim();
      if (typed === '') return choices[initial].value;
      const byNumber = /^\d+$/.test(typed) ? choices[Number(typed) - 1] : undefined;
      const chosen = byNumber ?? choices.find((c) => c.value === typed);
      if (chosen) return chosen.value;
      this.write(`x Type a number from 1 to ${choices.length} (Enter: ${initial + 1}).\n`);
    }
  }

  async confirm(options: { message: string; default: boolean }): Promise<boolean> {
    for (;;) {
      const typed = (await this.line(`? ${options.message} ${options.default ? '[Y/n]' : '[y/N]'}: `))
        .trim()
        .toLowerCase();
      if (typed === '') return options.default;
      if (['y', 'yes'].includes(typed)) return true;
      if (['n', 'no'].includes(typed)) return false;
      this.write('x Answer y or n.\n');
    }
  }

  /** Writes the prompt and resolves with the next line (without its line break). */
  private line(prompt: string, secret = false): Promise<string> {
    this.write(prompt);
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.ended) return Promise.reject(new PromptCancelled('The input ended.'));
    const raw = secret && this.io.input.isTTY && this.io.input.setRawMode;
    if (raw) this.io.input.setRawMode!(true);
    return new Promise<string>((resolve, reject) => {
      // Outside raw mode Ctrl+C is a signal, not a character.
      const onSignal = () => this.cancel();
      process.once('SIGINT', onSignal);
      const done = () => {
        process.off('SIGINT', onSignal);
        if (raw) this.io.input.setRawMode!(false);
      };
      this.waiter = {
        secret: Boolean(raw),
        resolve: (line) => {
          done();
          resolve(line);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
    });
  }

  private cancel(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    this.write('\n');
    waiter?.reject(new PromptCancelled('Cancelled.'));
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    for (const c of text) {
      if (c === CTRL_C) {
        this.pending = '';
        this.secretText = '';
        this.cancel();
        return;
      }
      if (this.waiter?.secret) {
        this.secretKey(c);
        continue;
      }
      if (c === '\r' || c === '\n') {
        // "\r\n" is one line break.
        if (c === '\n' && this.lastWasCr) {
          this.lastWasCr = false;
          continue;
        }
        this.lastWasCr = c === '\r';
        this.deliver(this.pending);
        this.pending = '';
      } else {
        this.lastWasCr = false;
        this.pending += c;
      }
    }
  };

  private lastWasCr = false;

  /** A key typed while a secret is read in raw mode: nothing is echoed. */
  private secretKey(c: string): void {
    if (c === '\r' || c === '\n') {
      const value = this.secretText;
      this.secretText = '';
      this.write('\n');
      this.deliver(value);
    } else if (c === '\u007f' || c === '\b') {
      this.secretText = this.secretText.slice(0, -1);
    } else if (c === '\u0015') {
      this.secretText = '';
    } else if (c === CTRL_D && this.secretText === '') {
      this.cancel();
    } else if (c >= ' ') {
      this.secretText += c;
    }
  }

  private deliver(line: string): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter.resolve(line);
    else this.lines.push(line);
  }

  private readonly onEnd = (): void => {
    this.ended = true;
    if (this.pending !== '') {
      this.deliver(this.pending);
      this.pending = '';
    }
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(new PromptCancelled('The input ended.'));
  };
}
