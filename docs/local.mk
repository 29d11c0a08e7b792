# Man pages and guides.
EXTRA_DIST += %reldir%/PERFORMANCE.md
