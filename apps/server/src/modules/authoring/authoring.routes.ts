import type { FastifyPluginAsync } from 'fastify';
import { CASES_PAGE_SCRIPT } from './authoring-page.js';

const page = ({ title, body, scripts = [] }: { title: string; body: string; scripts?: string[] }) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · PatientSim</title>
<link rel="icon" href="/auth/favicon.svg">
<style>
  body { font-family: Roboto, Arial, sans-serif; margin: 0; color: #1f2933; background: #f5f7fa; }
  main { max-width: 640px; margin: 64px auto; padding: 32px; background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 1.6rem; margin-top: 0; }
  a { color: #0d47a1; }
</style>
${scripts.map((src) => `<script type="module" src="${src}"></script>`).join('\n')}
</head>
<body><main>${body}</main></body>
</html>`;

/**
 * The authoring paths (decision 1): /authoring/cases is the scenario library, guarded by the
 * authoring-path guard (a valid stored login result and a verified e-mail); any other authoring
 * path belongs to another application and answers a plain page that says so.
 */
export const authoringRoutes: FastifyPluginAsync = async (app) => {
  app.get('/authoring/cases', { schema: { hide: true } }, (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(
        page({
          title: 'Scenarios',
          scripts: ['/authoring/cases.js', '/auth/authoring-guard.js'],
          body: `<h1>Scenarios</h1>
<p id="library-status">Checking your session…</p>
<p><a href="/auth/account/profile">Go to your account</a></p>`,
        }),
      ),
  );

  app.get('/authoring/cases.js', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(CASES_PAGE_SCRIPT),
  );

  app.get('/authoring/*', { schema: { hide: true } }, (request, reply) =>
    reply
      .status(404)
      .type('text/html; charset=utf-8')
      .send(
        page({
          title: 'Not part of PatientSim',
          body: `<h1>This page is not served here</h1>
<p>${request.url.split('?')[0]?.replace(/[<>&"']/g, '') ?? ''} belongs to another PatientSim application.</p>
<p><a href="/auth/account/profile">Back to your account</a></p>`,
        }),
      ),
  );
};
