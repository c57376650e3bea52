// Model A (timeout task) global declarations, seed-models.md section 3.2,
// instance (c1, c2, d) = (1, 1, 0).
const int c1 = 1;   const int c2 = 1;   const int d = 0;     // instance parameters
const int D  = d + c2;
const int K  = D / c1 + 1;                  // = (D/c1)+1 of Fig. 6
const int T  = D + c2 * (D / c1 + 1);
const int NB = d / c1 + 2;
typedef int[0, NB-1] bid_t;

chan b;                    // [P] "b-synchronization" from Process to a Broadcast instance (binary channel)
bool alive      = false;   // [P] (alive, Process) in buff_Observer
bool has_halted = false;   // [P] Process in halted_Observer
bool active[NB];           // [P] symmetry-trick flags, all false initially
clock t;                   // [P] global clock, reset on every delivery; used by (1)
