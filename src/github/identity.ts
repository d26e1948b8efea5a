// Who the token is, in one request. REST GET /user refuses every installation token
// (GITHUB_TOKEN and GitHub App tokens) with 403 "Resource not accessible by integration"
// (mislav/hub#2149, actions/create-github-app-token#258, actions/actions-sync PR #177), so an
// App token used to be mistaken for github-actions[bot]. GraphQL `viewer` answers every kind
// of token with the login its comments are authored by: `<app-slug>[bot]` for an App token
// (fullsend-ai/fullsend PR #1953: "viewer returns fullsend-ai-coder[bot]"; pingdotgg/t3code
// PR #11273), `github-actions[bot]` for GITHUB_TOKEN (CatChen/token-who-am-i-action: viewer
// query, CI job with secrets.GITHUB_TOKEN, README "e.g. github-actions[bot]"), the user for a PAT.
import type { Octokit } from './client.js';

const GITHUB_ACTIONS_BOT = 'github-actions[bot]';

/** `actions`: the workflow's GITHUB_TOKEN; `app`: a GitHub App installation token; `user`: a PAT. */
export type TokenKind = 'actions' | 'app' | 'user';

export interface TokenIdentity {
  /** The login comments made with this token are authored by (REST `user.login`). */
  login: string;
  kind: TokenKind;
}

const VIEWER_QUERY = /* GraphQL */ `query { viewer { login } }`;

export function tokenKindOf(login: string): TokenKind {
  if (login.toLowerCase() === GITHUB_ACTIONS_BOT) return 'actions';
  return login.endsWith('[bot]') ? 'app' : 'user';
}

export async function getTokenIdentity(octokit: Octokit): Promise<TokenIdentity> {
  let login: string;
  try {
    ({
      viewer: { login },
    } = await octokit.graphql<{ viewer: { login: string } }>(VIEWER_QUERY));
  } catch (e) {
    // No documented token is refused `viewer`; if GitHub ever does (an old Enterprise Server),
    // keep the earlier assumption that an unnamed token is the workflow's GITHUB_TOKEN.
    if (!isRefusal(e)) throw e;
    login = GITHUB_ACTIONS_BOT;
  }
  return { login, kind: tokenKindOf(login) };
}

function isRefusal(e: unknown): boolean {
  const err = e as { status?: number; errors?: { type?: string }[] };
  if (err.status === 401 || err.status === 403 || err.status === 404) return true;
  return Array.isArray(err.errors) && err.errors.some((x) => x.type === 'FORBIDDEN');
}
