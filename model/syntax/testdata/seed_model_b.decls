// Model B (abstract agreement algorithm) global declarations and functions,
// seed-models.md sections 4.2 and 4.3, instance n = 3, f = 1, (c1, c2, d) = (1, 1, 0).
// ---- instance parameters ----
const int n  = 3;
const int f  = 1;
const int c1 = 1;   const int c2 = 1;   const int d = 0;
// ---- derived ----
const int D    = d + c2;
const int T    = D + c2 * (D / c1 + 1);
const int U    = (2*f - 1) * D + (T > 3*D ? T : 3*D);
const int NB   = (d/c1 + 2 < 2*f + 3) ? d/c1 + 2 : 2*f + 3;   // min(d/c1+2, 2f+3)
const int RMAX = 2*f + 2;                      // bound for r [R]
const int MMAX = RMAX + 1;                     // largest message value
const int ALL  = (1 << n) - 1;                 // recipient mask "everybody"
typedef int[0, n-1]  pid_t;
typedef int[0, NB-1] bid_t;

chan b[n];          // [P] b[id]: process id hands the message in bv[id] to one of its Broadcast automata
chan stop[n];       // [P] stop[j]: offered by j while halted
chan activate[n];   // [R] process id starts its Timeout automaton
chan finish[n];     // [R] Timeout automaton id hands control back

int[0, RMAX] r[n];                 // [P] round counters, all 0
int[-1, 1]   v[n]   = {-1,-1,-1};  // [P] inputs
int[-1, 1]   dec[n] = {-1,-1,-1};  // [P] decision; -1 = none
bool buff[n][MMAX+1][n];           // [P] buff[i][m][j]
bool halted[n][n];                 // [P] halted[i][j]
int[-1, MMAX] bv[n];               // [P] value passed to the Broadcast automaton (<0: nothing)
int[0, ALL]  bmask[n];             // [R] recipient set passed to the Broadcast automaton
bool down[n];                      // [R] process has halted (decided or failed)
bool active[n][NB];                // [P] Broadcast automaton busy (symmetry trick)
bool pend[n][NB][n];               // [R] pend[j][k][i]
int[0, f] nf = 0;                  // [P] number of failures so far
clock t;                           // [P] running time

bool pre1(const pid_t id) { return r[id]==0 && v[id]==1; }              // Fig. 8 [P]
bool pre2(const pid_t id) { return r[id]==0 && v[id]==0; }              // Fig. 8 [P]
bool pre3(const pid_t id)                                               // Fig. 8 [P]
{
  if (r[id]<=0)
    return false;
  for (j:pid_t)
    if (buff[id][r[id]][j])
      return true;
  return false;
}
bool pre4(const pid_t id)                                               // Fig. 8 [P]
{
  if (r[id]<=0 || pre3(id))
    return false;
  for (j:pid_t)
    if (!halted[id][j] &&
        !buff[id][r[id]-1][j])
      return false;
  return true;
}

int failValue(const pid_t id)       // [R]
{
  if (pre1(id)) return 0;
  if (pre2(id)) return 1;
  if (pre3(id)) return r[id];
  if (pre4(id)) return r[id] + 1;
  return -1;                         // the next step would broadcast nothing
}

bool allInformed(const pid_t id)    // [R]
{
  for (j : pid_t)
    if (j != id && !down[j] && !halted[j][id]) return false;
  return true;
}

bool mayAdd(const pid_t me, const pid_t j)   // [R] all messages from j to me have been delivered
{
  for (k : bid_t)
    if (pend[j][k][me]) return false;
  return true;
}

bool allBusy(const pid_t id)        // [R] every Broadcast automaton of id is active
{
  for (k : bid_t) if (!active[id][k]) return false;
  return true;
}

bool wantsToBroadcast(const pid_t id) { return pre1(id) || pre2(id) || pre3(id) || pre4(id); }   // [R]
