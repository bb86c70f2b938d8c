/* A maze walked by SIZE symbolic moves (w/a/s/d): every move that hits a wall or leaves the
 * grid ends the path, the exit is a bug. Many short paths, each decided by one branch per
 * move: the shape of KLEE's maze tutorial, sized for thousands of paths (issue 39's
 * parallel suite). */
#include "../bench.h"

#define H 9
#define W 11
static const char maze[H][W + 1] = {
    "+-+-------+",
    "|   |     |",
    "| | | +-+ |",
    "| |   |   |",
    "| +---+ | |",
    "|       | |",
    "| +-+ +-+ |",
    "|   |     #",
    "+---+-----+",
};

int main(void) {
    char moves[SIZE];
    klee_make_symbolic(moves, sizeof moves, "moves");
    int x = 1, y = 1, visited = 0;
    for (int i = 0; i < SIZE; i++) {
        switch (moves[i]) {
        case 'w': y--; break;
        case 's': y++; break;
        case 'a': x--; break;
        case 'd': x++; break;
        default: return visited;
        }
        if (maze[y][x] == '#')
            klee_assert(0 && "exit reached");
        if (maze[y][x] != ' ')
            return visited;
        visited++;
    }
    return visited;
}
