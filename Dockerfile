# Bazaar in a container: the runtime dependencies only, a non-root user, the database on a volume.
#   docker build -t bazaar .
#   docker run -d --env-file .env -v bazaar-data:/data bazaar
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BAZAAR_DB=/data/bazaar.sqlite3 \
    BAZAAR_HEARTBEAT=/tmp/bazaar.heartbeat

WORKDIR /opt/bazaar
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY engines ./engines
COPY render ./render
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir .
ENV PATH=/opt/venv/bin:$PATH

RUN useradd --system --create-home --uid 10001 bazaar && mkdir -p /data && chown bazaar /data
USER bazaar
VOLUME ["/data"]
WORKDIR /data

HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["bazaar", "health"]
STOPSIGNAL SIGINT
CMD ["bazaar", "run"]
