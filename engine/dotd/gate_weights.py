"""Fitted weights of the Day of the Dead gate agent (engine/dotd/gate.py), one vector per decision
kind in the order of that kind's features (the kinds it decides by lookahead have none). Written
by bench/fit_gate.py (softmax regression on mcts:100 visit shares) and refined by
bench/tune_gate.py (paired play against greedy, with the lookahead on).
"""

WEIGHTS: dict[str, tuple[float, ...]] = {
    'fighter': (0.1519, 0.04384, 0.03351, -0.03673, 0.1663, -0.06422, 0.08703, -0.06125, 0.2127, 1.292, -0.05491, -0.2541),
    'spirit': (-0.01191, 0.0759, 0.04389, 0.03117, -0.005159, -0.05055, -0.01114, -0.04061, -0.09122, 0.007548, 0.05146, 0.04309, 0.1806, 0.1354, 0.5341, -0.0126, 0.1949, -0.1443),
    'dig_discard': (-0.01589, -0.0222, -0.08831, -0.03949, 0.0143, 0.001014, 0.006502, 0.01403, -0.005908, 0.007528, -0.00433, 0.0114),
    'dig_deck': (-0.05536, 0.02078, -0.005297, 0.001104, -0.01105, 0.01483, 0.008688, -0.004644, 0.00942, 0.00761, -0.009251, -0.03405, 0.01867),
}
