/** The one request body of the HTTP benchmark: the same every time, so answers come from the cache. */
export const BODY = JSON.stringify({
  message: "I'm looking for noise cancelling headphones for long flights. Is the Sony WH-1000XM5 worth it, or should I get the Bose QuietComfort Ultra?",
  message_analysis: 'fast',
  country: 'US',
});
