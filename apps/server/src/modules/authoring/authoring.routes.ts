import type { FastifyPluginAsync } from 'fastify';

const page = ({ title, body }: { title: string; body: string }) => `<!doctype html>
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
</head>
<body><main>${body}</main></body>
</html>`;

/**
 * The authoring paths (decision 1): /authoring/cases is the scenario library, a page of the web
 * app (served with it, see plugins/external/web-app.ts); any other authoring path belongs to
 * another application and answers a plain page that says so.
 */
export const authoringRoutes: FastifyPluginAsync = async (app) => {
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
