"""Basic blocks and immediate post-dominators of a linear instruction sequence.

A divergent branch reconverges at the immediate post-dominator of its block (the classic IPDOM
scheme the SIMT stack uses). A branch whose paths only meet at function exit gets no
reconvergence point (-1): its lanes rejoin when they retire.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class CFG:
    starts: list[int]  # first pc of each block
    ends: list[int]  # one past the last pc of each block
    succs: list[list[int]]  # successor block ids (the exit is not listed)
    block_of: dict[int, int]  # pc -> block id
    ipdom: list[int]  # block id of the immediate post-dominator, -1 = the exit


def build_cfg(lo: int, hi: int, targets: dict[int, int], terminators: set[int],
              conditional: set[int], falls_through: set[int] = frozenset()) -> CFG:
    """Blocks for pcs [lo, hi). `targets[pc]` is a branch target; `terminators` are ret/exit/trap;
    `conditional` are branches that may fall through; `falls_through` end a block with only the
    next block after them (a guarded ret / exit, for passes that must not look past one)."""
    leaders = {lo}
    for pc, t in targets.items():
        if lo <= pc < hi:
            leaders.add(t)
            leaders.add(pc + 1)
    for pc in (*terminators, *falls_through):
        if lo <= pc < hi:
            leaders.add(pc + 1)
    starts = sorted(x for x in leaders if lo <= x < hi)
    ends = starts[1:] + [hi]
    block_of: dict[int, int] = {}
    for b, (s, e) in enumerate(zip(starts, ends)):
        for pc in range(s, e):
            block_of[pc] = b
    succs: list[list[int]] = []
    for e in ends:
        last = e - 1
        out: list[int] = []
        if last in targets:
            out.append(block_of[targets[last]])
            if last in conditional and e < hi:
                out.append(block_of[e])
        elif last in terminators:
            pass
        elif e < hi:
            out.append(block_of[e])
        succs.append(sorted(set(out)))
    ipdom = _immediate_post_dominators(succs)
    return CFG(starts, ends, succs, block_of, ipdom)


def _immediate_post_dominators(succs: list[list[int]]) -> list[int]:
    """Cooper-Harvey-Kennedy on the reverse CFG with a virtual exit node (id n)."""
    n = len(succs)
    exit_node = n
    preds_rev: list[list[int]] = [[] for _ in range(n + 1)]  # predecessors in the reverse graph = successors
    rsuccs: list[list[int]] = [[] for _ in range(n + 1)]  # reverse graph edges
    for b, ss in enumerate(succs):
        targets = ss if ss else [exit_node]
        for s in targets:
            rsuccs[s].append(b)
            preds_rev[b].append(s)
    # blocks that cannot reach the exit (infinite loops) get an edge to it, so every node has a pdom
    reach = {exit_node}
    stack = [exit_node]
    while stack:
        x = stack.pop()
        for y in rsuccs[x]:
            if y not in reach:
                reach.add(y)
                stack.append(y)
    for b in range(n):
        if b not in reach:
            rsuccs[exit_node].append(b)
            preds_rev[b].append(exit_node)
    # reverse post-order of the reverse graph from the exit
    order: list[int] = []
    seen = {exit_node}
    stack2 = [(exit_node, iter(rsuccs[exit_node]))]
    while stack2:
        node, it = stack2[-1]
        nxt = next(it, None)
        if nxt is None:
            order.append(node)
            stack2.pop()
        elif nxt not in seen:
            seen.add(nxt)
            stack2.append((nxt, iter(rsuccs[nxt])))
    order.reverse()
    index = {b: i for i, b in enumerate(order)}
    idom = {exit_node: exit_node}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            cands = [p for p in preds_rev[b] if p in idom]
            if not cands:
                continue
            new = cands[0]
            for p in cands[1:]:
                a, c = new, p
                while a != c:
                    while index[a] > index[c]:
                        a = idom[a]
                    while index[c] > index[a]:
                        c = idom[c]
                new = a
            if idom.get(b) != new:
                idom[b] = new
                changed = True
    return [(-1 if idom.get(b, exit_node) == exit_node else idom[b]) for b in range(n)]
