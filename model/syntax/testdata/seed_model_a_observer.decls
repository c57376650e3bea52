// Model A, template Observer() local declarations (section 3.4).
clock x; int[-1, K] cnt = -1;

void update()            // Fig. 6, verbatim [P]
{
  if (!has_halted)
    cnt++;
  if (alive)
  {
    alive = false;
    cnt = 0;
  }
  has_halted = cnt>=(D/c1)+1;
}
