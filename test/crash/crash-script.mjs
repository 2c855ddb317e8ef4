// The script both sides of the crash test play: the child process that is killed and
// the test that resumes its session. Plain ESM so the child runs it without a build step.

/** Tool steps in the episode; the model answers after this many. */
export const TOOL_STEPS = 4;

/** Model calls made so far in the request's current episode (after the last user message). */
function stepsSoFar(messages) {
  let steps = 0;
  for (let index = messages.length - 1; index >= 0 && messages[index].role !== 'user'; index -= 1) {
    if (messages[index].role === 'assistant') steps += 1;
  }
  return steps;
}

/** The scripted model's next step, computed from the request so a fresh process continues the same plan. */
export function crashScript(request) {
  const step = stepsSoFar(request.messages) + 1;
  if (step > TOOL_STEPS) return { reasoning: `reasoning ${step}: all done`, text: 'all steps done' };
  return {
    reasoning: `reasoning ${step}: run step ${step}`,
    toolCalls: [{ id: `call_${step}`, name: 'work', args: { step } }],
  };
}

/** The `work` tool; `hangAt` makes that step never finish (the child is killed while it waits). */
export function workTool({ hangAt, ran }) {
  return {
    spec: { name: 'work', description: 'does one step of work', inputSchema: { type: 'object' } },
    async execute(args) {
      ran?.push(args.step);
      if (args.step === hangAt) await new Promise((resolve) => setTimeout(resolve, 60_000));
      return { content: `step ${args.step} done` };
    },
  };
}
