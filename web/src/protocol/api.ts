// The HTTP helper of every page's API calls (docs/web-protocol.md, "HTTP"): JSON in and out,
// a refusal becomes ApiError with the server's message, code and params. The calls themselves
// are each feature's (games/games_api.ts, accounts/accounts_api.ts, learn/learn_api.ts, ...).

import type { HttpError } from "./types.js";

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    // the server's code and parameters of the refusal, which the page translates (i18n.ts)
    public code: string | null = null,
    public params: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Sends one request and returns the answer's text; a refusal throws ApiError. */
export async function call_text(method: string, path: string, body?: unknown): Promise<string> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    // the server's refusal (types.ts HttpError); a proxy's page or an empty body has none
    const data = parse_json(text);
    const e = (data !== null && typeof data === "object" ? data : {}) as Partial<HttpError>;
    throw new ApiError(res.status, e.error || `${res.status} ${res.statusText}`, e.code ?? null, e.params ?? {});
  }
  return text;
}

function parse_json(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return parse_json(await call_text(method, path, body)) as T;
}
