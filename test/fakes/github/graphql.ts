// POST /graphql: queries really execute against GitHub's published schema, so an invalid
// query fails here exactly as it would on GitHub, and the data has GitHub's shape.
import { buildClientSchema, graphql } from 'graphql';
import type { GraphQLFieldResolver, GraphQLSchema, IntrospectionQuery } from 'graphql';
import { schema as published } from '@octokit/graphql-schema';
import { apiError, json, route } from './http.js';
import type { Ctx, Reply, Route } from './http.js';
import { FakeGraphQLError, rootValue } from './graphql-nodes.js';
import { mutationRefusal } from './token-access.js';

let cached: GraphQLSchema | undefined;

/** GitHub's schema from @octokit/graphql-schema (buildSchema on its SDL throws; the introspection JSON works). */
export function githubSchema(): GraphQLSchema {
  cached ??= buildClientSchema(published.json as unknown as IntrospectionQuery);
  return cached;
}

/**
 * Objects answer a field by a property or a method of that name. A field the fake does
 * not model is an error, never a silent null, so a query using it fails loudly.
 */
const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
  const obj = source as Record<string, unknown>;
  if (!(info.fieldName in obj)) {
    throw new Error(`fake GitHub: ${info.parentType.name}.${info.fieldName} is not implemented by the fake`);
  }
  const value = obj[info.fieldName];
  return typeof value === 'function'
    ? (value as (a: unknown, c: unknown, i: unknown) => unknown).call(obj, args, context, info)
    : value;
};

async function handle(ctx: Ctx): Promise<Reply> {
  if (!ctx.headers.authorization) {
    const doc = 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql';
    return apiError(401, 'This endpoint requires you to be authenticated.', doc);
  }
  const body = (ctx.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof body.query !== 'string') {
    return json(200, { errors: [{ message: 'A query attribute must be specified and must be a string.' }] });
  }
  const operationName = typeof body.operationName === 'string' ? body.operationName : null;
  const refused = ctx.state.tokenReadOnly ? mutationRefusal(body.query, operationName) : null;
  if (refused) return refused;
  const result = await graphql({
    schema: githubSchema(),
    source: body.query,
    variableValues: (body.variables ?? {}) as Record<string, unknown>,
    operationName: typeof body.operationName === 'string' ? body.operationName : null,
    rootValue: rootValue(ctx),
    fieldResolver,
  });
  if (!result.errors) return json(200, { data: result.data });
  // GitHub puts the error kind (NOT_FOUND, FORBIDDEN…) in a top-level `type`.
  const errors = result.errors.map((e) => {
    const out = { ...e.toJSON() };
    const original = e.originalError;
    return original instanceof FakeGraphQLError ? { type: original.type, ...out } : out;
  });
  return json(200, result.data === undefined ? { errors } : { data: result.data, errors });
}

export const graphqlRoutes: Route[] = [route('POST', '/graphql', handle)];
