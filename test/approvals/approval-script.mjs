// The plan both sides of the approval restart test play: the child processes that
// pause, approve and die, and the test that resumes. Plain ESM so the children run
// it without a build step.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

/** The scripted model's next step, computed from the request so every process continues the same plan. */
export function approvalScript(request) {
  const answered = request.messages.some((message) => message.role === 'tool');
  if (answered) return { reasoning: 'Both results are in.', signature: 'sig-2', text: 'patched and checked' };
  return {
    reasoning: 'The log shows the failing assertion; patch it and read the log again.',
    signature: 'sig-1',
    toolCalls: [
      { id: 'patch_1', name: 'apply_patch', args: { patch: '-1\n+2' } },
      { id: 'log_1', name: 'read_log', args: {} },
    ],
  };
}

/** `apply_patch` (needs approval) and `read_log`; each run is logged to `<directory>/ran.log`, whichever process runs it. */
export function approvalTools(directory) {
  const tool = (name, needsApproval) => ({
    spec: { name, description: name, inputSchema: { type: 'object' } },
    needsApproval,
    async execute(_args, context) {
      appendFileSync(join(directory, 'ran.log'), `${context.toolCallId}\n`);
      return { content: `${name} done` };
    },
  });
  return [tool('apply_patch', true), tool('read_log', false)];
}
