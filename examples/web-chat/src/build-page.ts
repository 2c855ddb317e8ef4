/**
 * Bundles the page's script (plain JavaScript on the `ai` package's chat client)
 * with esbuild into dist/public/, next to the page and its style sheet.
 * `npm run build` in this folder runs it; the browser test calls it directly.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Where the built page is served from. */
export const PUBLIC_DIR = fileURLToPath(new URL('../dist/public/', import.meta.url));
const PAGE_DIR = fileURLToPath(new URL('../page/', import.meta.url));

/** Builds dist/public: index.html, style.css and the bundled chat.js. */
export async function buildPage(): Promise<void> {
  await mkdir(PUBLIC_DIR, { recursive: true });
  await Promise.all([
    copyFile(`${PAGE_DIR}index.html`, `${PUBLIC_DIR}index.html`),
    copyFile(`${PAGE_DIR}style.css`, `${PUBLIC_DIR}style.css`),
    build({
      entryPoints: [`${PAGE_DIR}chat.js`],
      outfile: `${PUBLIC_DIR}chat.js`,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
    }),
  ]);
}

// Run as a script (`node dist/build-page.js`), not when imported.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildPage();
