// The rules playground: asks the node (POST /.rules/simulate, administrators only) whether a read, set or update at
// a path would be allowed as anonymous, as a given auth, or as an administrator, against the rules in the editor
// and the current data. Nothing is written; the deciding rule's line is marked in the editor.
import { call, withParameters } from './api.js';

export class Playground {
  constructor(form, rules) {
    this.form = form;
    this.rules = rules;
    this.field = (id) => form.querySelector(`#${id}`);
    const showFields = () => {
      this.field('sim-auth-field').hidden = this.field('sim-as').value !== 'auth';
      this.field('sim-data-field').hidden = this.field('sim-operation').value === 'read';
    };
    this.field('sim-as').addEventListener('change', showFields);
    this.field('sim-operation').addEventListener('change', showFields);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.run();
    });
  }

  /** The question as the endpoint takes it; throws with a message when a JSON field does not parse. */
  question() {
    const as = this.field('sim-as').value;
    const operation = this.field('sim-operation').value;
    const parse = (id, what) => {
      try { return JSON.parse(this.field(id).value); } catch (error) { throw new Error(`${what} is not JSON: ${error.message}`); }
    };
    return {
      operation,
      path: this.field('sim-path').value || '/',
      admin: as === 'admin',
      auth: as === 'auth' ? parse('sim-auth', 'auth') : null,
      data: operation === 'read' ? null : parse('sim-data', 'The data'),
      rules: this.rules.text.value,
    };
  }

  async run() {
    const result = this.field('sim-result');
    try {
      const answer = JSON.parse(await call('POST', withParameters('/.rules/simulate'), JSON.stringify(this.question())));
      const reason = answer.rule ? `${answer.rule}, line ${answer.line}` : answer.explanation;
      result.textContent = `${answer.allowed ? 'Allowed' : 'Denied'} — ${reason}`;
      result.className = `sim-result ${answer.allowed ? 'allowed' : 'denied'}`;
      this.rules.mark(answer.line, answer.column);
    } catch (error) {
      result.textContent = error.message;
      result.className = 'sim-result denied';
      this.rules.mark(null);
    }
  }
}
