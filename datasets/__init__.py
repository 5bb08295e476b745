"""agari.datasets: synthetic scene renderer, annotation formats and bulk labelling."""
