"""Central differences on plain Python lists: the tests' own check, independent of `engine.gradcheck`."""


def central_differences(loss, values, h=1e-6):
    """d loss / d values[i] for every i, as (loss(v + h e_i) - loss(v - h e_i)) / 2h."""
    grad = []
    for i in range(len(values)):
        up, down = list(values), list(values)
        up[i] += h
        down[i] -= h
        grad.append((loss(up) - loss(down)) / (2 * h))
    return grad
