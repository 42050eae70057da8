import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Serves the built single-page app under /auth with history fallback, and its index.html at
 * /authoring/cases: the scenario library is a page of the same app (decision 1), whose router
 * runs the authoring-path guard. A page the build prerendered (`pages/<path>.html`: index.html
 * with the page's HTML, sign-in and sign-up) gets that copy when its address has no query: the
 * copy is the page as it shows without one, and a query may change what it shows (the sign-up
 * page's invitation variant), so such an address gets index.html and the page renders in the
 * browser. The build writes a brotli
 * and a gzip copy of every text file (`<file>.br`, `<file>.gz`); a browser that accepts one of
 * them gets it (`Content-Encoding`, `Vary: Accept-Encoding`), any other the file as it is.
 */
export default fp<{ root: string }>(
  async (app, { root }) => {
    await app.register(fastifyStatic, { root, serve: false, preCompressed: true });
    const isFile = (relative: string) => {
      const absolute = path.resolve(root, relative);
      if (!absolute.startsWith(root + path.sep)) return false;
      return existsSync(absolute) && statSync(absolute).isFile();
    };

    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/auth/login'));
    const serve = async (relative: string, hasQuery: boolean, reply: FastifyReply) => {
      if (relative && isFile(relative)) {
        const immutable = relative.startsWith('assets/');
        return reply.sendFile(relative, { maxAge: immutable ? '365d' : 0, immutable });
      }
      if (!isFile('index.html')) {
        return reply.status(503).type('text/plain').send('The web app is not built. Run `npm run build`.');
      }
      const page = relative && !hasQuery ? `pages/${relative}.html` : null;
      reply.header('cache-control', 'no-cache');
      return reply.sendFile(page && isFile(page) ? page : 'index.html', { cacheControl: false });
    };
    app.get('/auth', { schema: { hide: true } }, (_request, reply) => serve('', false, reply));
    app.get('/authoring/cases', { schema: { hide: true } }, (_request, reply) => serve('', false, reply));
    app.get<{ Params: { '*': string } }>('/auth/*', { schema: { hide: true } }, (request, reply) =>
      serve(request.params['*'], request.url.includes('?'), reply),
    );
  },
  { name: 'web-app' },
);
