import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Layering (docs/architecture.md): domain <- data <- sync <- server <- features <- app, and
// ui knows no feature. Only data imports dexie; only sync and server import supabase-js.
// Each entry lists what a layer may NOT import.
const layerBans = {
  'src/domain/**': {
    patterns: ['**/data/**', '**/sync/**', '**/server/**', '**/features/**', '**/app/**', '**/ui/**'],
    paths: ['react', 'react-dom', 'dexie', 'dexie-react-hooks', '@supabase/supabase-js', 'zustand'],
  },
  'src/data/**': {
    patterns: ['**/sync/**', '**/server/**', '**/features/**', '**/app/**', '**/ui/**'],
    paths: ['@supabase/supabase-js'],
  },
  'src/sync/**': {
    patterns: ['**/server/**', '**/features/**', '**/app/**', '**/ui/**'],
    paths: ['react', 'react-dom', 'dexie', 'dexie-react-hooks'],
  },
  'src/server/**': {
    patterns: ['**/features/**', '**/app/**', '**/ui/**'],
    paths: ['react', 'react-dom', 'dexie', 'dexie-react-hooks'],
  },
  'src/ui/**': {
    patterns: ['**/features/**', '**/app/**', '**/sync/**', '**/server/**', '**/data/**'],
    paths: ['dexie', 'dexie-react-hooks', '@supabase/supabase-js'],
  },
  'src/features/**': {
    patterns: ['**/app/**'],
    paths: ['dexie', 'dexie-react-hooks', '@supabase/supabase-js'],
  },
  'src/app/**': {
    patterns: [],
    paths: ['dexie', 'dexie-react-hooks', '@supabase/supabase-js'],
  },
};

export default tseslint.config(
  { ignores: ['dist', 'dev-dist', 'node_modules', '.local-supabase', 'test-results', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  ...Object.entries(layerBans).map(([files, bans]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: bans.paths.map((name) => ({ name, message: 'Not allowed in this layer (docs/architecture.md, "The layers").' })),
          patterns: bans.patterns.length ? [{ group: bans.patterns, message: 'Imports against the layering (docs/architecture.md, "The layers").' }] : [],
        },
      ],
    },
  })),
  {
    // Supabase deploys an edge function from supabase/functions alone: what it shares with
    // the app comes from the copies in _shared (npm run functions:shared).
    files: ['supabase/functions/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/**', '**/local/**'], message: 'An edge function imports only from supabase/functions (copies in _shared).' }] },
      ],
    },
  },
);
