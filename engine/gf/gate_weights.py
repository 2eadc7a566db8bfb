"""Fitted weights of the Grave Feast gate agent (engine/gf/gate.py). "bias": added to greedy's
score of an action, by its op code (engine/gf/state.py, END=0 .. TRIM=23); "rares": (rival
family threat from which a Devil Wife is played from the hand rather than placed, rival visible
monsters from which an Exorcist blasts rather than going into the mash). Tuned by
bench/tune_gate.py (paired play against greedy).
"""

WEIGHTS: dict[str, tuple[float, ...]] = {
    'bias': (-1.542, 6.57, 0.1177, -0.01398, 0.9672, -2.41, 1.777, -2.82, 0.6837, -0.2024, 1.213, -0.7946, -0.1375, 0.9459, 1.822, -1.003, 0.9176, 3.55, -1.878, 5.853, -1.555, 0.01485, -2.638, 4.371),
    'rares': (8, 3),
}
