// The namespace picker in the header: its field offers the namespaces the node holds (an administrator's
// `GET /.namespaces`; nobody else may ask, so nobody else is offered any), and a new name may still be typed.
import { call, withParameters } from './api.js';

export class NamespacePicker {
  /**
   * `input` is the field (a `list=` of `list`, a `<datalist>`); `onPick(name)` runs when a namespace is picked
   * from the list or a typed one is confirmed (Enter, or leaving the field), once per change of name.
   */
  constructor(input, list, onPick) {
    this.input = input;
    this.list = list;
    this.administrator = false;
    this.current = input.value.trim();
    const pick = () => {
      const name = input.value.trim();
      if (name === this.current) return;
      this.current = name;
      onPick(name);
    };
    input.addEventListener('change', pick);
    // Choosing an offered name fills the field in one step: take it at once, as a picker does.
    input.addEventListener('input', () => {
      if (this.names().includes(input.value)) pick();
    });
    input.addEventListener('focus', () => this.refresh());
  }

  /** The names offered now. */
  names() {
    return [...this.list.options].map((option) => option.value);
  }

  /** Whether the console acts as an administrator (who alone may list namespaces); lists them again. */
  setAdministrator(administrator) {
    this.administrator = administrator;
    return this.refresh();
  }

  /** Asks the node for its namespaces again (an administrator only); on any failure offers none. */
  async refresh() {
    let names = [];
    if (this.administrator) {
      try {
        names = JSON.parse(await call('GET', withParameters('/.namespaces'))).namespaces ?? [];
      } catch {
        names = [];
      }
    }
    this.list.replaceChildren(...names.map((name) => {
      const option = document.createElement('option');
      option.value = name;
      return option;
    }));
  }
}
