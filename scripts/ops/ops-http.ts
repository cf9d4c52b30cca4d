import { Injectable } from '@nestjs/common';
import { readSecretFiles } from '@app/config';

/** An answer of a service's ops API. */
export interface OpsResponse {
  status: number;
  body: unknown;
}

/**
 * Calls a service's ops API over HTTP; the body is JSON both ways. The operator token comes
 * from $OPS_API_TOKEN or the file $OPS_API_TOKEN_FILE names (never from the command line,
 * where `ps` would show it).
 */
@Injectable()
export class OpsHttp {
  private readonly token = readSecretFiles(process.env, ['OPS_API_TOKEN']).OPS_API_TOKEN as
    string | undefined;

  async call(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    timeoutMs = 30_000,
  ): Promise<OpsResponse> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.token && { authorization: `Bearer ${this.token}` }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new Error(`${method} ${url}: ${cause ?? (error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed };
  }
}
