// Declarations from the YAML sketch in architecture.md.
const int D = d + c2;
const int T = D + c2 * (D / c1 + 1);
typedef int[0, n-1] pid_t;
int[-1, 1] dec[n] = {-1, -1, -1};
bool buff[n][6][n];
clock t;
chan activate[n]; broadcast chan go;
bool pre3(const pid_t id) { for (j : pid_t) if (buff[id][r[id]][j]) return true; return false; }
