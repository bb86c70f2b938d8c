/* The second unit of units_main.c's program. The last branch is dead: x cannot be both
 * above 0 and below -5 (x > 0 was tested first). */
int sign(int x) {
  if (x > 0)
    return 1;
  if (x < -5 && x > 0)
    return 7;
  if (x < 0)
    return -1;
  return 0;
}
