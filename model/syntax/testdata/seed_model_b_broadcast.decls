// Model B, template Broadcast(const pid_t id, const bid_t bid) local declarations (4.6).
clock x; int[-1, MMAX] msg = -1;

bool turn()                     // [R] lowest idle automaton of process id
{ for (k : bid_t) if (k < bid && !active[id][k]) return false; return true; }

bool shouldDeliver(const pid_t j)   // [R] deliver only if still needed: recipient j has not halted
{ return msg >= 0 && pend[id][bid][j] && !down[j]; }

bool allDelivered()                 // [R]
{ for (j : pid_t) if (shouldDeliver(j)) return false; return true; }

void start()                        // [R]
{
  msg = bv[id];
  for (j : pid_t) pend[id][bid][j] = msg >= 0 && (bmask[id] & (1 << j)) != 0;
  active[id][bid] = true;
}

void release()                      // [R] normalises local state when idle
{ for (j : pid_t) pend[id][bid][j] = false; active[id][bid] = false; msg = -1; }
