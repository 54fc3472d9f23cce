"""``compare``, the variant explorer: what do these rules change, with honest intervals.

One module a job: ``metrics`` (every metric defined once, as integer running sums),
``worker`` (play one batch of paired matches where a worker runs), ``runner``
(schedule batches on this process, a process pool or Dask; merge in batch order),
``stats`` (intervals and paired differences with scipy.stats), ``compare`` (settings
-> pairings -> rows), ``report`` (rich table, JSON), ``html`` and ``plot`` (charts).
``docs/metrics.md`` explains every number.
"""
