import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildLoginResult } from '../testing/factories';
import { errorResponse, stubApi } from '../testing/fake-api';
import { jsonResponse } from '../testing/render';
import { ApiError } from './api-client';
import { GRAPHQL_PATH, graphqlFetch } from './graphql';
import { writeLoginResult } from './session-store';

const schema = z.object({ templateCases: z.array(z.object({ id: z.string() })) });
const request = { query: '{ templateCases(productType: EMS) { id } }', variables: { a: 1 }, schema };

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('Expected a failure');
}

describe('graphqlFetch', () => {
  it('posts { query, variables } with the bearer token and answers data', async () => {
    writeLoginResult(buildLoginResult());
    const api = stubApi(
      [{ method: 'POST', path: GRAPHQL_PATH, respond: () => jsonResponse({ data: { templateCases: [{ id: 'c1' }] } }) }],
      {
        withShell: false,
      },
    );
    await expect(graphqlFetch(request)).resolves.toEqual({ templateCases: [{ id: 'c1' }] });
    const [sent] = api.callsTo('POST', GRAPHQL_PATH);
    expect(sent?.body).toEqual({ query: request.query, variables: { a: 1 } });
    expect(sent?.headers.get('Authorization')).toBe('Bearer header.payload.signature');
  });

  it.each([
    ['alone, with its status', null, 403],
    ['beside partial data, with 200', { templateCases: [] }, 200],
  ])('throws the first GraphQL error (%s) with its product code and status', async (_, data, status) => {
    writeLoginResult(buildLoginResult());
    stubApi(
      [
        {
          method: 'POST',
          path: GRAPHQL_PATH,
          respond: () =>
            jsonResponse(
              {
                data,
                errors: [
                  { message: 'Student cannot retrieve this info', extensions: { code: 'FORBIDDEN', statusCode: 403 } },
                  { message: 'second' },
                ],
              },
              status,
            ),
        },
      ],
      { withShell: false },
    );
    const error = await failure(graphqlFetch(request));
    expect(error).toMatchObject({
      message: 'Student cannot retrieve this info',
      code: 'FORBIDDEN',
      statusCode: 403,
      hasReplyMessage: true,
    });
  });

  it('throws the JSON error of a refused request (no valid token)', async () => {
    writeLoginResult(buildLoginResult());
    stubApi([{ method: 'POST', path: GRAPHQL_PATH, respond: () => errorResponse(401, 'UNAUTHENTICATED', 'Not signed in') }], {
      withShell: false,
    });
    expect(await failure(graphqlFetch(request))).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
  });

  it('refuses data of the wrong shape', async () => {
    writeLoginResult(buildLoginResult());
    stubApi([{ method: 'POST', path: GRAPHQL_PATH, respond: () => jsonResponse({ data: { templateCases: 'no' } }) }], {
      withShell: false,
    });
    expect(await failure(graphqlFetch(request))).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('fails like a 401 when signed out, without calling the server', async () => {
    const api = stubApi([], { withShell: false });
    expect(await failure(graphqlFetch(request))).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
    expect(api.requests).toHaveLength(0);
  });
});
