/**
 * JSON as models write tool-call arguments: a space after each colon and comma
 * (`{"location": "San Francisco"}`, as recorded), not `JSON.stringify`'s compact
 * form, so the loopback servers can tell whether a client sent the model's own
 * string back or a re-serialised one, and refuse the latter.
 */

/** `value` as JSON with `": "` and `", "` separators. */
export function modelJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(modelJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>).map(
      ([key, item]) => `${JSON.stringify(key)}: ${modelJson(item)}`,
    );
    return `{${fields.join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** The strict rule's text: arguments sent back differ from the model's own string. */
export function rewrittenArguments(where: string, callId: string): string {
  return (
    `strict loopback rule (not an API error): ${where} differs from the arguments string the model produced for ${callId}; ` +
    "send the model's own string back byte for byte."
  );
}

/** Strict rule beyond the API: a call of this model goes back with the arguments string it wrote. */
export function checkArgumentsVerbatim(
  messages: readonly Record<string, unknown>[],
  model: string,
  issuedCalls: ReadonlyMap<string, { model: string; arguments: string }>,
): { status: number; message: string } | undefined {
  for (const [index, message] of messages.entries()) {
    for (const [position, call] of callsOf(message).entries()) {
      const known = issuedCalls.get(call.id);
      if (known?.model === model && call.function?.arguments !== known.arguments)
        return { status: 400, message: rewrittenArguments(`messages[${index}].tool_calls[${position}].function.arguments`, call.id) };
    }
  }
  return undefined;
}

function callsOf(message: Record<string, unknown>): { id: string; function?: { arguments?: string } }[] {
  return Array.isArray(message.tool_calls) ? (message.tool_calls as { id: string }[]) : [];
}
