// Runs one run_command call (`sleep SECONDS`) until the parent test signals this process.
// Usage: node command-child.mjs <root> <seconds> [handler]   ("handler": the app handles SIGTERM itself)
import { runCommandTool } from '@episodic/tools';

const [root, seconds, mode] = process.argv.slice(2);
if (mode === 'handler') {
  process.on('SIGTERM', () => {
    process.stdout.write('handled\n');
    setTimeout(() => process.exit(0), 1_000);
  });
}
const tool = runCommandTool({ root });
process.stdout.write('started\n');
const result = await tool.execute({ argv: ['sleep', seconds] }, { signal: new AbortController().signal, toolCallId: 'c' });
process.stdout.write(`${result.content.split('\n')[1]}\n`);
