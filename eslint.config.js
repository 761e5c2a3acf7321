// eslint . (npm run lint): the recommended rules of ESLint and of typescript-eslint, without type information so that
// the whole tree is linted in seconds; and no line over 120 characters, comments and strings included: prettier wraps
// code at 120 but leaves long comments and strings as they are (scripts/wrap-long-lines.mjs wraps those, once).
// A deliberate exception is marked where it is, `// eslint-disable-next-line <rule> -- <why>`, not turned off here.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The line that opens a test: it(, test(, describe( or bench(, with modifiers (.skipIf(…), .each(…)), and its title.
 */
const TEST_OPENING =
  /^\s*(?:it|test|describe|bench)(?:\.\w+(?:\(.*?\))?)*\((?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`),/;

export default defineConfig(
  // Build and run output, as in .prettierignore.
  { ignores: ['dist/', 'reports/', 'bench/.cache/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Prettier keeps code within 120 columns; this keeps comments and strings there too. A line with a URL or a
      // regular expression literal may be longer, as neither can be broken; so may the line that opens a test, whose
      // title stays whole: it is what a failing run prints, and what one searches the code for.
      'max-len': [
        'error',
        {
          code: 120,
          tabWidth: 2,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
          ignorePattern: TEST_OPENING.source,
        },
      ],
      // A name that starts with _ is unused on purpose: a parameter a signature needs, or a property destructured out
      // so that `...rest` is the object without it.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // CommonJS files import with require().
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
