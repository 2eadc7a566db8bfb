"""Fitted weights of the Day of the Dead gate agent (engine/dotd/gate.py), one vector per decision
kind in the order of that kind's features (the kinds it decides by lookahead have none). Written
by bench/fit_gate.py (softmax regression on mcts:100 visit shares) and refined by
bench/tune_gate.py (paired play against greedy, with the lookahead on).
"""

WEIGHTS: dict[str, tuple[float, ...]] = {
    'fighter': (-0.2431, -0.03038, -0.03146, -0.06125, 0.4658, -0.2172, 0.1292, -0.298, 0.5679, 0.08654, -0.03685, -0.3135),
    'spirit': (0.002163, 0.06777, -0.05166, 0.01647, -0.01448, -0.04875, 0.004782, -0.03572, -0.01092, 0.0811, -0.01654, 0.05321, 0.1445, 0.1506, 0.1632, -0.01969, 0.1484, -0.01445),
    'dig_discard': (-0.01297, -0.02044, -0.0658, -0.07223, 0.01216, 0.0004063, 0.0007764, 0.002962, 0.000917, -0.004872, 0.0038, -0.002248),
    'dig_deck': (-0.1265, 0.007857, -0.00155, 0.0009867, 0.001232, -0.001005, 0.01701, 0.005428, -0.01084, -0.002287, -0.006079, 0.0001125, 0.007142),
}
