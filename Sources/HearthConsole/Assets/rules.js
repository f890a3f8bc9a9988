// The rules page: the running rules of the namespace, edited in place and deployed with PUT
// /.settings/rules.json. A refused file shows the node's own message, and its line and column are marked.
import { call, withParameters } from './api.js';

/** The line and column in a message such as `Error saving rules - Line 4: Unexpected ')'. (column 12)`. */
export function errorPosition(message) {
  const line = /Line (\d+)/.exec(message);
  const column = /\(column (\d+)\)/.exec(message);
  return line ? { line: Number(line[1]), column: column ? Number(column[1]) : 1 } : null;
}

export class RulesPage {
  /** `isAdministrator()` says whether the console acts as an administrator (who alone may read the rules). */
  constructor(text, gutter, status, isAdministrator) {
    this.isAdministrator = isAdministrator;
    this.text = text;
    this.gutter = gutter;
    this.status = status;
    this.badLine = null;
    this.decidedLine = null;
    text.addEventListener('input', () => { this.badLine = null; this.decidedLine = null; this.number(); });
    text.addEventListener('scroll', () => { gutter.scrollTop = text.scrollTop; });
    text.addEventListener('keydown', (event) => {
      if (event.key === 'Tab') {
        event.preventDefault();
        text.setRangeText('  ', text.selectionStart, text.selectionEnd, 'end');
        this.number();
      }
      if (event.key === 's' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.deploy();
      }
    });
  }

  /** Draws the line numbers, the refused line marked. */
  number() {
    const count = this.text.value.split('\n').length;
    const lines = [];
    for (let line = 1; line <= count; line += 1) {
      const number = document.createElement('span');
      number.textContent = `${line}\n`;
      if (line === this.badLine) number.className = 'bad';
      else if (line === this.decidedLine) number.className = 'decided';
      lines.push(number);
    }
    this.gutter.replaceChildren(...lines);
    this.gutter.scrollTop = this.text.scrollTop;
  }

  /** Reads the rules in force. */
  async load() {
    if (!this.isAdministrator()) {
      this.status.textContent = 'Only an administrator may see and deploy the rules: sign in first.';
      this.status.className = 'status error';
      return;
    }
    try {
      this.text.value = await call('GET', withParameters('/.settings/rules.json'));
      this.badLine = null;
      this.status.textContent = 'The rules in force.';
      this.status.className = 'status';
    } catch (error) {
      this.status.textContent = error.message;
      this.status.className = 'status error';
    }
    this.number();
  }

  /** Deploys the edited rules; a refusal marks its line and puts the cursor at its column. */
  async deploy() {
    try {
      await call('PUT', withParameters('/.settings/rules.json'), this.text.value);
      this.badLine = null;
      this.status.textContent = 'Deployed.';
      this.status.className = 'status';
    } catch (error) {
      this.status.textContent = error.message;
      this.status.className = 'status error';
      const position = errorPosition(error.message);
      this.badLine = position?.line ?? null;
      if (position) this.select(position);
    }
    this.number();
  }

  /** Marks the line of the rule that decided a playground question (null clears it). */
  mark(line, column) {
    this.decidedLine = line ?? null;
    this.number();
    if (line) this.select({ line, column: column ?? 1 }, false);
  }

  /** Puts the cursor at a line and column of the text. */
  select({ line, column }, focus = true) {
    const lines = this.text.value.split('\n');
    let offset = 0;
    for (let index = 0; index < line - 1 && index < lines.length; index += 1) offset += lines[index].length + 1;
    offset += Math.max(0, column - 1);
    if (focus) this.text.focus();
    this.text.setSelectionRange(offset, offset);
  }
}
