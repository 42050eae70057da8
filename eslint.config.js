import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The web app's features: each folder under apps/web/src/features. */
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * A feature never imports another feature: what two features share lives in components/ or lib/.
 * One block per feature, so that each may import its own folders.
 */
const webFeatureZones = WEB_FEATURES.map((feature) => {
  const others = WEB_FEATURES.filter((name) => name !== feature).join('|');
  return {
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${others})(/|$)`,
              message: 'A feature does not import another feature: move what they share to components/ or lib/.',
            },
          ],
        },
      ],
    },
  };
});
/** Secrets are compared through isSameSecret, which hides their length too (lib/secrets.ts). */
const SECRET_COMPARISON = ['node:crypto', 'crypto'].map((name) => ({
  name,
  importNames: ['timingSafeEqual'],
  message: 'Compare secrets with isSameSecret from lib/secrets.ts.',
}));

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'apps/server/src/db/migrations/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'vitest.config.ts', 'scripts/*.mjs', 'apps/web/e2e/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false, arguments: false } }],
      '@typescript-eslint/require-await': 'off',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts', '**/test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      'no-console': 'off',
    },
  },
  {
    // Each Playwright worker has a server of its own; only the `test` of support/test.ts knows which.
    files: ['apps/web/e2e/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message: "Import test and expect from './support/test': it points each worker at its own server.",
            },
          ],
        },
      ],
    },
  },
  // Module boundaries (decision 0057). `no-restricted-imports` takes one list per file, so each zone
  // below repeats the rule every server file keeps: secrets are compared through one helper, which
  // hides their length too (lib/secrets.ts).
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/lib/secrets.ts', '**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: SECRET_COMPARISON }] },
  },
  {
    // A module reaches another only through that module's service, never its repository or routes.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: SECRET_COMPARISON,
          patterns: [
            {
              regex: '^\\.\\./[^./][^/]*/(?![^/]+\\.service\\.js$)',
              message: 'Reach another module through its *.service.ts only (its repository and routes are its own).',
            },
          ],
        },
      ],
    },
  },
  {
    // lib/ sits below plugins and modules: it imports neither.
    files: ['apps/server/src/lib/**/*.ts'],
    ignores: ['apps/server/src/lib/secrets.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: SECRET_COMPARISON,
          patterns: [
            {
              group: ['../modules/*', '../plugins/*'],
              message: 'lib/ is below plugins and modules: move the shared part here instead.',
            },
          ],
        },
      ],
    },
  },
  ...webFeatureZones,
  {
    // The domain package runs in the browser and on the server: nothing of Node, the DOM or a framework.
    files: ['packages/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'The domain package stays universal: no Node modules.' },
            {
              group: ['fs', 'path', 'crypto', 'os', 'react', 'react-dom', 'fastify', 'drizzle-orm', 'drizzle-orm/*', '@mui/*'],
              message: 'The domain package stays universal: no Node modules, frameworks or database.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'localStorage', 'navigator', 'process', 'Buffer', '__dirname', 'require'].map((name) => ({
          name,
          message: 'The domain package stays universal: no browser or Node globals.',
        })),
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['scripts/**/*.mjs', 'apps/web/e2e/*.mjs', '.ci/**'], rules: { 'no-console': 'off' } },
);
