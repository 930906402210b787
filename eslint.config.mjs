import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// Import boundaries: app/ and components/ → server/api → domain modules (server/<area>) →
// server/db. lib/ is pure code shared by server and UI. dev/ (embedded databases, launcher
// support, test harness) and scripts/ never ship, so nothing under server/ may import them.
// Each entry is a regex over the import specifier; relative specifiers climb with `../`.
const up = String.raw`^(~/|(\.\./)+|\./)`;
const fromServer = (area) => ({ regex: String.raw`^(~/server/|(\.\./)+)${area}(/|$)` });
const boundary = (files, patterns, extra = {}) => ({
  files,
  ...extra,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});
const DEV_TOOLING = {
  regex: String.raw`${up}(dev|scripts|bench|e2e)(/|$)`,
  message: 'dev tooling (dev/, scripts/, bench/, e2e/) never ships: server/ may not import it',
};
const UI = {
  regex: String.raw`${up}(app|components)(/|$)`,
  message: 'server code does not depend on pages or components',
};

// One way into the database. A request reads and writes through server/db/access.ts (`read`,
// `write`: the gate, bookmarks, degraded marking); work outside any request uses the process's
// handle, server/db/background.ts. Nothing else takes a client or a node-postgres pool itself.
// Separate rules (no-restricted-imports, no-restricted-syntax) from the layering above, so
// the two sets of patterns never override each other.
const DB_HANDLES = [
  {
    name: 'pg',
    message: 'node-postgres belongs to server/db: use server/db/background.ts (or a statement of server/db/sql.ts)',
  },
];
const DB_HANDLE_PATTERNS = [
  {
    regex: String.raw`^(~/server/|(\.\./)+(server/)?)db/client$`,
    importNames: ['primary', 'replica', 'connect', 'poolOf'],
    message:
      'a request reads and writes through server/db/access.ts (read, write); work outside any request through server/db/background.ts',
  },
];
// Hand-written SQL lives in server/db and in a domain's `*.sql.ts` statements (server/db/sql.ts),
// which tests/db/statements.integration.test.ts prepares against the migrated schema.
const RAW_SQL = [
  {
    selector: String.raw`MemberExpression[property.name=/^\$(queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)$/]`,
    message: 'hand-written SQL goes in a `*.sql.ts` statement (server/db/sql.ts), run with run/runOne/execute',
  },
  {
    // node-postgres's query(text…); tRPC's .query(handler) takes a function and is fine.
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name='query']:not([arguments.0.type='ArrowFunctionExpression']):not([arguments.0.type='FunctionExpression'])",
    message: 'hand-written SQL goes in a `*.sql.ts` statement (server/db/sql.ts), run with run/runOne/execute',
  },
];
const BROWSER_SHARED = ['server/routing/policy-content.ts', 'server/routing/policy-diff.ts', 'server/region/code.ts'];
const SHIPPED = ['server/**/*.ts', 'app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'lib/**/*.ts', '*.ts'];
export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Everything under server/ ships: its unit tests too import no dev tooling (tests that need the
  // harness, databases or a running app live in tests/).
  boundary(['server/**/*.ts'], [DEV_TOOLING, UI]),
  // Domain modules and the data layer never reach up into the API layer. (The gateway's entry
  // point, server/http/main.ts, is a door like app/: it hands /v1 to the REST adapter.)
  boundary(
    ['server/**/*.ts'],
    [
      DEV_TOOLING,
      UI,
      {
        ...fromServer('api'),
        message: 'domain modules and server/db do not import server/api: the API layer calls them',
      },
    ],
    { ignores: ['server/api/**', 'server/http/main.ts'] },
  ),
  // The data layer knows nothing of the domains above it.
  boundary(
    ['server/db/**/*.ts'],
    [
      DEV_TOOLING,
      UI,
      { ...fromServer('api'), message: 'server/db does not import server/api' },
      {
        regex: String.raw`^(~/server/|\.\./)(?!db/|env$|errors$|ids|telemetry/|process-singletons$|region/catalog$|region/code$)[^.]`,
        message: 'server/db depends only on env, errors, ids, telemetry and process singletons',
      },
    ],
  ),
  // Routers are thin: they call domain functions and never touch the database themselves.
  boundary(
    ['server/api/routers/**/*.ts'],
    [
      DEV_TOOLING,
      UI,
      {
        regex: String.raw`^(~/server/|(\.\./)+)db(/|$)`,
        message: 'routers call a domain function (server/<area>); only domain modules use server/db',
      },
    ],
  ),
  // React components may use server code's types only (the browser bundle gets none of it), except
  // the server actions in server/api/actions (Next sends the browser a reference, not the code)
  // and the modules shared with the browser (BROWSER_SHARED, below).
  boundary(
    ['components/**/*.{ts,tsx}'],
    [
      {
        regex: String.raw`^(~/server/|(\.\./)+server/)(?!api/actions/|routing/policy-(content|diff)$)`,
        allowTypeImports: true,
        message: 'components import server code as types only (import type …)',
      },
    ],
  ),
  // Components don't import from app/ (a route folder moves with its URL), and they change things
  // one way: a server action (server/api/actions), whose result carries the contract's error object
  // and the request ID. A separate rule from the boundaries above, so neither replaces the other.
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(~/|(\.\./)+)app(/|$)`,
              message: 'components do not import app/: server actions live in server/api/actions',
            },
            ...DB_HANDLE_PATTERNS,
          ],
          paths: [
            ...DB_HANDLES,
            {
              name: '@tanstack/react-query',
              importNames: ['useMutation'],
              message: 'components change things through a server action (server/api/actions), not a tRPC mutation',
            },
          ],
        },
      ],
    },
  },
  // Server modules the browser gets as code (a domain's zod shapes the forms use): they import zod,
  // region codes and one another, nothing else, so nothing server-only reaches the bundle.
  boundary(BROWSER_SHARED, [
    {
      regex: String.raw`^(?!zod$|\./policy-content$|\.\./region/code$)`,
      message: 'shared with the browser: imports only zod, ../region/code and ./policy-content',
    },
  ]),
  // lib/ is pure and shared: no server, UI or dev imports.
  boundary(
    ['lib/**/*.ts'],
    [{ regex: String.raw`${up}(server|app|components|dev|scripts)(/|$)`, message: 'lib/ is pure shared code' }],
  ),
  // (components/ get the same refusals in their own block above: one block per file set, since a
  // later no-restricted-imports on the same files replaces an earlier one.)
  {
    files: SHIPPED,
    ignores: ['server/db/**', 'components/**', '**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: DB_HANDLES, patterns: DB_HANDLE_PATTERNS }] },
  },
  {
    files: SHIPPED,
    ignores: ['server/db/**', '**/*.sql.ts', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...RAW_SQL] },
  },
  globalIgnores([
    '.next/**',
    '.data/**',
    'node_modules/**',
    'next-env.d.ts',
    'server/db/generated/**',
    'sdk/src/generated/**',
    'sdk/dist/**',
    'test-results/**',
    'playwright-report/**',
    'e2e/.artifacts/**',
  ]),
]);
