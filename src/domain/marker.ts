// The hidden marker every comment of the action carries: how the action finds its own
// reports (memory.ts) and its own review threads (review/threads.ts) among everyone's.
export const MARKER = '<!-- pr-review-loop-marker -->';
