FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config config
COPY engine engine
COPY league league
COPY games games
RUN pip install --no-cache-dir .
COPY . .
RUN useradd --create-home tianhei && chown -R tianhei /app
USER tianhei
EXPOSE 8000
CMD ["bin/web"]
