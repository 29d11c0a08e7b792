# Man pages and guides.
EXTRA_DIST += %reldir%/PERFORMANCE.md %reldir%/ARCHITECTURE.md %reldir%/RELIABILITY.md
