// Small DOM helpers.

/** Escapes text for HTML. */
export function esc(s: unknown): string {
  return String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Shows a short message at the bottom of the screen for a few seconds. */
export function toast(text: string, kind: "error" | "info" = "info"): void {
  let box = document.getElementById("toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    document.body.appendChild(box);
  }
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.textContent = text;
  box.appendChild(el);
  window.setTimeout(() => el.remove(), 5000);
}

/** Removes every toast: a message about one page does not stay over the next. */
export function clear_toasts(): void {
  document.getElementById("toasts")?.replaceChildren();
}

/** Copies text to the clipboard (falls back to selecting an input). */
export async function copy_text(text: string, input?: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.select();
      return document.execCommand("copy");
    }
    return false;
  }
}

/** An element with attributes and children; strings become text nodes (never markup). */
export function h(tag: string, attrs: Record<string, string> = {}, ...children: (Node | string | null)[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null) e.append(c);
  return e;
}
/** A form field: its label above the input. */
export function field(label: string, input: HTMLElement): HTMLElement {
  return h("label", {}, h("span", {}, label), input);
}
export function option(value: string, text: string, selected = false): HTMLElement {
  const o = h("option", { value }, text) as HTMLOptionElement;
  o.selected = selected;
  return o;
}

export interface View {
  el: HTMLElement;
  /** Draws again (after a language change). */
  render(): void;
  /** Leaves the view: closes sockets, timers and key handlers. */
  destroy(): void;
}
