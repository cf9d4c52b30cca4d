import { OperatorToken } from './operator-token';

/** The name OPS_API_TOKEN's token goes by in the audit log. */
export const DEFAULT_OPERATOR_NAME = 'operator';

/** A token and the operator it names. */
export interface NamedToken {
  name: string;
  token: string;
}

/**
 * The operator tokens a service accepts, each with the name of whoever holds it: the name is
 * who the audit log records, so no caller can claim to be someone else. Every token is
 * compared, whichever matches, so the time taken says nothing about which one did.
 */
export class OperatorTokens {
  private readonly entries: Array<{ name: string; token: OperatorToken }>;

  constructor(named: NamedToken[]) {
    if (named.length === 0) throw new Error('the operator API needs at least one token');
    this.entries = named.map(({ name, token }) => ({ name, token: new OperatorToken(token) }));
  }

  /** OPS_API_TOKEN (named `operator`) and the `name:token,…` list of OPS_API_TOKENS. */
  static fromEnv(single: string | undefined, list: string | undefined): OperatorTokens {
    const named = single === undefined ? [] : [{ name: DEFAULT_OPERATOR_NAME, token: single }];
    return new OperatorTokens([...named, ...parseNamedTokens(list ?? '')]);
  }

  /** The name of the token presented, or undefined when it is none of them. */
  identify(presented: string): string | undefined {
    let name: string | undefined;
    for (const entry of this.entries) {
      if (entry.token.matches(presented) && name === undefined) name = entry.name;
    }
    return name;
  }
}

/** `name:token,name:token` as pairs; the token is everything after the first colon. */
export function parseNamedTokens(list: string): NamedToken[] {
  return list
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const colon = pair.indexOf(':');
      if (colon < 1) throw new Error('OPS_API_TOKENS must be name:token[,name:token…]');
      return { name: pair.slice(0, colon), token: pair.slice(colon + 1) };
    });
}
