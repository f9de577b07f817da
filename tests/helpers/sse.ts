import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Reads a whole event stream with a real EventSource parser. */
export async function readEvents(response: Response, stopAfter = Infinity): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  while (events.length < stopAfter) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel().catch(() => {});
  return events;
}
