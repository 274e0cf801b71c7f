// ESLint flat config: typescript-eslint's recommended rules over every TypeScript file.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // bootslots.js declares XS host functions (`@ "name"`), which ESLint's parser does not read.
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'targets/moddable/bootslots/bootslots.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
