// Model A, template Broadcast(const bid_t id) local declarations (section 3.5).
clock x;

bool turn()                       // [R] "lowest idle instance takes the next broadcast"
{
  for (j : bid_t) if (j < id && !active[j]) return false;
  return true;
}
