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

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // the server's refusal (types.ts HttpError); a proxy's page or an empty body has none
    const e = (data !== null && typeof data === "object" ? data : {}) as Partial<HttpError>;
    throw new ApiError(res.status, e.error || `${res.status} ${res.statusText}`, e.code ?? null, e.params ?? {});
  }
  return data as T;
}
